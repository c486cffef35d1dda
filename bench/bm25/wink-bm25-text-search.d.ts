/** The part of wink-bm25-text-search's API the benchmark uses (the package ships no types). */
declare module 'wink-bm25-text-search' {
  interface WinkBm25Engine {
    defineConfig(config: { fldWeights: Record<string, number>; bm25Params?: { k1?: number; b?: number; k?: number } }): boolean;
    definePrepTasks(tasks: ((input: string) => string[])[], field?: string): number;
    addDoc(document: Record<string, string>, id: string | number): number;
    consolidate(fieldPrecision?: number): boolean;
    search(text: string, limit?: number): [string, number][];
  }
  export default function bm25(): WinkBm25Engine;
}
