/**
 * `make(key)` built once per key object (a connection, a database, the app's dependencies) and kept
 * while the key lives: prepared statements, transaction functions and the like, which cost more to
 * build than to use on the paths every request takes.
 */
export function oncePer<Key extends object, Value>(make: (key: Key) => Value): (key: Key) => Value {
  const made = new WeakMap<Key, Value>();
  return (key) => {
    if (made.has(key)) return made.get(key) as Value;
    const value = make(key);
    made.set(key, value);
    return value;
  };
}
