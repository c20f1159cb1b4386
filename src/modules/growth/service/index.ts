// The growth service: referrals, business certification and invoices, over ../queries.
export {
  getCertification,
  listCertifications,
  reviewCertification,
  submitCertification,
} from "./certification";
export { adminListInvoices, issueInvoice, listOwnInvoices, requestInvoice } from "./invoices";
export { getReferrals } from "./referrals";
