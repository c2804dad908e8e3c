// The wire speaks snake_case, callers camelCase. Only keys change: values (amounts, ids, addresses)
// pass through untouched, and `undefined` fields are left out so an optional field is never sent
// as null by accident (PATCH reads null as "clear this field").

const camel = (key) => key.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const snake = (key) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function mapKeys(value, rename) {
  if (Array.isArray(value)) return value.map((item) => mapKeys(item, rename));
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined) out[rename(key)] = mapKeys(item, rename);
  }
  return out;
}

export const toWire = (value) => mapKeys(value, snake);
export const fromWire = (value) => mapKeys(value, camel);
