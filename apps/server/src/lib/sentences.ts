/**
 * Staff's own words (a rejection reason) inside a message: trimmed, and ended with a full stop when
 * they end with none, so the message's next sentence does not run on from them ("…that day You do
 * not need to come").
 */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  // Already ended: a full stop, question or exclamation mark, maybe inside closing quotes or brackets.
  return /[.!?…]["'”’)\]]*$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
