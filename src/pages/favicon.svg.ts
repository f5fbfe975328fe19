// The site's icon: a roof over a star, drawn in SVG (no binary asset), linked from every page.

const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
<path d="M6 30 32 8l26 22" fill="none" stroke="#b4532a" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>
<path d="m32 24 5 10.5 11.5 1.5-8.5 8 2 11.5L32 50l-10 5.5 2-11.5-8.5-8L27 34.5z" fill="#d99a2b"/>
</svg>
`;

export function GET(): Response {
  return new Response(ICON, { headers: { 'Content-Type': 'image/svg+xml' } });
}
