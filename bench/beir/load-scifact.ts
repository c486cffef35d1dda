import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AdvisorArgumentError } from '../../src/errors/advisor-argument-error.ts';
import { type BeirDataset, loadBeirDataset } from '../../src/evaluation/load-beir-dataset.ts';

/** Where CI keeps the dataset: `../shared/datasets/scifact` beside the repository. */
const DEFAULT_DIRECTORY = fileURLToPath(new URL('../../../shared/datasets/scifact', import.meta.url));

/**
 * The BEIR SciFact test split for a benchmark, from `--dataset <folder>`, else
 * `SCIFACT_DIR`, else the CI location. SciFact is CC BY-NC 2.0 (evaluation
 * only), so it is never part of this repository: when it is missing, says in
 * one line how to get it and exits with status 1.
 */
export async function loadSciFact(): Promise<BeirDataset & { directory: string }> {
  const { values } = parseArgs({ options: { dataset: { type: 'string' } }, strict: false });
  const given = typeof values.dataset === 'string' && values.dataset !== '' ? values.dataset : process.env.SCIFACT_DIR;
  const directory = given === undefined || given === '' ? DEFAULT_DIRECTORY : resolve(given);
  try {
    return { directory, ...(await loadBeirDataset({ directory })) };
  } catch (error) {
    if (!(error instanceof AdvisorArgumentError && error.argument === 'directory')) throw error;
    console.error(
      `SciFact not found in ${directory} (needs corpus.jsonl, queries.jsonl, qrels/test.tsv): download BEIR's scifact.zip ` +
        '(https://public.ukp.informatik.tu-darmstadt.de/thakur/BEIR/datasets/scifact.zip), unzip it and pass its folder as --dataset <folder> or SCIFACT_DIR=<folder>',
    );
    process.exit(1);
  }
}
