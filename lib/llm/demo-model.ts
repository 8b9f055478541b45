/**
 * The model name of the offline demo (`npm start -- --demo`): every stage of a demo studio uses it,
 * so any run, call or model field naming it is labelled as canned replies in the UI. The demo's
 * replies themselves live outside the product, in demo/.
 */
export const DEMO_MODEL_NAME = "demo-canned-replies";

export const isDemoModel = (model: string | null | undefined) => model === DEMO_MODEL_NAME;
