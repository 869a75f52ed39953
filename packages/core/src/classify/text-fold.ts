/**
 * Folds text for phrase matching: lower case, accents removed, one space between
 * words. Rules are then written once without accents ("desinscrire", "zuruck") and
 * match whether or not the writer's keyboard typed the accents.
 */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/[’‘`´]/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}
