// Answers every request with a greeting; GREETING comes from the function's env.
export default {
  async fetch(request: Request): Promise<Response> {
    const name = new URL(request.url).searchParams.get("name") ?? "world";
    return new Response(`${process.env.GREETING ?? "Hello"}, ${name}!\n`, { headers: { "content-type": "text/plain" } });
  },
};
