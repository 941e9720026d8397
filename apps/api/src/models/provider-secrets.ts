/** What the key of a provider row is sealed against (its uuid), so a sealed key cannot move rows. */
export const keyContext = (providerUuid: string) => `model_provider:${providerUuid}`;
