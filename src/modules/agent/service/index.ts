/** The agent's rules: starting, running, following, listing and cancelling runs. */
export { cancelAgentRun } from "./cancel";
export {
  AGENT_RUN_JOB,
  handBackInstanceRuns,
  type KeepAlive,
  pendingAgentRuns,
  resumeInstanceRuns,
  startAgentRun,
  sweepAgentPipelines,
} from "./dispatch";
export { readRunView, streamRunEvents } from "./events";
export { outreachLanguage, runAgentPipeline } from "./pipeline";
export { getPipeline, listPipelines } from "./pipelines";
