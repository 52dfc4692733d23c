export const rgPath = process.env.DSH_REPLAY_RG_WRAPPER
