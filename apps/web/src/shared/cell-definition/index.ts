/**
 * Which definition a live cell asks for (issue 19 items 2 and 4): by its view (grid size, full
 * screen), the ship's link and the organisation's link policies, unless the operator picked one.
 */
// choose-definition.ts is loaded with the first policies (link-policy-api.ts): only its types here.
export type { CellDefinition, CellDefinitionInput, CellView } from './choose-definition.ts';
export * from './link-policy-api.ts';
export * from './useCellDefinition.ts';
