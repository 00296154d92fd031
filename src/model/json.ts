/** A JSON-safe value: what plans, results and error details are made of. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
