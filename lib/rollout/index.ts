/** Public entry of the rollout domain: agent loop, user simulator, rewards, SFT filter. */
export * from "./rollout.schema";
export {
  type RolloutDeps,
  type RolloutError,
  type RolloutInput,
  type RolloutRecord,
  runRollout,
} from "./agent-loop";
export { AGENT_TAG, agentSystemPrompt, type EnvironmentBrief } from "./agent-prompt";
export { AGENT_GREETING, USER_SIM_TAG, createUserSimulator, parseUserReply } from "./user-simulator";
export { applyRewardPolicy, scoreChecks } from "./reward";
export { applySftFilter, type SftVerdict } from "./sft-filter";
export { goldCallsFromSteps } from "./gold-from-steps";
export { readTrajectoryMessages } from "./stored-messages";
