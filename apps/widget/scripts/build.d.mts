export const OUT_DIR: string;
export function buildWidget(outDir?: string): Promise<void>;
