// The lines of a text stream for the JSON-lines tools, split at "\n" alone ("\r\n" too). Node's
// readline also splits at U+2028 and U+2029, which a JSON string may hold raw: a review pasted
// from a web page would then be two broken lines.

/** Each line of `input`, without its line end; a last line without one too. */
export async function* jsonLines(
  input: AsyncIterable<string | Buffer> | Iterable<string | Buffer>,
): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  const strip = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);
  for await (const chunk of input) {
    rest += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let end = rest.indexOf('\n'); end !== -1; end = rest.indexOf('\n', start)) {
      yield strip(rest.slice(start, end));
      start = end + 1;
    }
    rest = rest.slice(start);
  }
  rest += decoder.decode();
  if (rest !== '') yield strip(rest);
}
