const TOPICS = [
  ['cat', 'cats', 'kitten', 'feline'],
  ['dog', 'dogs', 'puppy', 'canine'],
  ['car', 'cars', 'engine', 'vehicle'],
];

/** Embeds text as topic counts (cats, dogs, cars) plus a constant, so nearest neighbours are predictable. */
export function topicEmbedding(text: string, dimensions = 4): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  const vector = TOPICS.map((topic) => words.filter((word) => topic.includes(word)).length);
  vector.push(0.1);
  while (vector.length < dimensions) vector.push(0);
  return vector.slice(0, dimensions);
}
