/** A route's hooks of one kind as a list: Fastify's route options take none, one, or a list. */
export function hookList<Hook>(hooks: Hook | Hook[] | undefined): Hook[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}
