// The built-in parser of plain-words questions (docs/decisions/031), as a row of clause readers (decision 099):
// each takes the words it understands out of the working text (./reading), in this order, so a later reader
// never sees words an earlier one used; the last step (./follow-up) refines the previous answer and settles
// the filters.
import { readCannot, readCues, readNegations } from "./cues";
import { readCatalogue, readFirstSeen } from "./catalogue";
import { readAmazon, readCounts } from "./counts";
import { settle } from "./follow-up";
import { readNiches, readStagesAndSorts, readWhatIsLeft } from "./kinds";
import { readMargins } from "./margins";
import { readOtherProduct } from "./other-product";
import { readPrices } from "./prices";
import { startReading, type Reading } from "./reading";
import type { ParsedQuestion, QuestionContext } from "./types";

const READERS: ((r: Reading) => void)[] = [
  readCues,
  readCannot,
  readNegations,
  readOtherProduct,
  readCatalogue,
  readFirstSeen,
  readMargins,
  readCounts,
  readAmazon,
  readPrices,
  readStagesAndSorts,
  readNiches,
  readWhatIsLeft,
];

/**
 * Turns a question into grid filters. With `previous`, a follow-up ("cheaper", "only rising ones",
 * "under $20", "sort by margin", "more like the second") refines the previous filters; a question that
 * names its own niche or product without a follow-up cue starts afresh.
 */
export function parseQuestion(question: string, context: QuestionContext): ParsedQuestion {
  const reading = startReading(question, context);
  for (const read of READERS) read(reading);
  return settle(reading);
}
