/**
 * How a fertilizer material's supplier is identified (SIEX `NifEmpresa`, `REGA`, `NIMA`, mutually exclusive): a
 * company's NIF, a livestock farm's REGA, a waste handler's NIMA. MAT_FERTI says which a material takes.
 */
export const supplierIds = ['nif', 'rega', 'nima'] as const;
export type SupplierId = (typeof supplierIds)[number];
