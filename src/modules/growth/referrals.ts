// The referral reward's fragments, embedded by the account module's verification statement
// (src/modules/account/service.ts imports them by this path; they live in ./queries).
export { referralRewardOnVerification, referredRewardSet } from "./queries";
