/**
 * The XML documents of the S3 endpoint: the error body and the `ListObjectsV2` result, in the
 * shapes S3 clients parse (namespace `http://s3.amazonaws.com/doc/2006-03-01/`). Pure.
 */
import { awsUriEncode } from "./sigv4.js";

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";

/** Escapes text for XML content: markup characters as entities, control characters as character references. */
export function xmlText(text: string): string {
  return text.replace(/[&<>"'\u0000-\u001f\u007f-\u009f]/g, (ch) => {
    switch (ch) {
      case "&":
        return "&amp;";
      case "<":
        return "&lt;";
      case ">":
        return "&gt;";
      case '"':
        return "&quot;";
      case "'":
        return "&apos;";
      default:
        return `&#x${ch.charCodeAt(0).toString(16)};`;
    }
  });
}

function element(name: string, value: string | number | boolean): string {
  return `<${name}>${xmlText(String(value))}</${name}>`;
}

/** An S3 error document: `<Error><Code>…</Code><Message>…</Message>…<RequestId>…</RequestId></Error>`. */
export function errorXml(code: string, message: string, requestId: string, extra: Readonly<Record<string, string>> = {}): string {
  const fields = Object.entries(extra).map(([name, value]) => element(name, value)).join("");
  return `${DECLARATION}<Error>${element("Code", code)}${element("Message", message)}${fields}${element("RequestId", requestId)}</Error>`;
}

/** One object of a listing. */
export interface ListedObject {
  key: string;
  size: number;
  etag: string;
  lastModified: number;
}

/** The `ListObjectsV2` result to render. */
export interface ListResult {
  bucket: string;
  prefix: string;
  delimiter?: string;
  maxKeys: number;
  continuationToken?: string;
  nextContinuationToken?: string;
  startAfter?: string;
  /** `url`: keys, prefixes and delimiters are percent-encoded (the client asked with `encoding-type=url`). */
  encodingType?: "url";
  objects: ListedObject[];
  commonPrefixes: string[];
}

/** The `ListBucketResult` document of `ListObjectsV2`. */
export function listResultXml(r: ListResult): string {
  const name = (text: string): string => (r.encodingType === "url" ? awsUriEncode(text, true) : text);
  const parts = [
    element("Name", r.bucket),
    element("Prefix", name(r.prefix)),
    ...(r.delimiter !== undefined ? [element("Delimiter", name(r.delimiter))] : []),
    element("MaxKeys", r.maxKeys),
    element("KeyCount", r.objects.length + r.commonPrefixes.length),
    element("IsTruncated", r.nextContinuationToken !== undefined),
    ...(r.continuationToken !== undefined ? [element("ContinuationToken", r.continuationToken)] : []),
    ...(r.nextContinuationToken !== undefined ? [element("NextContinuationToken", r.nextContinuationToken)] : []),
    ...(r.startAfter !== undefined ? [element("StartAfter", name(r.startAfter))] : []),
    ...(r.encodingType !== undefined ? [element("EncodingType", r.encodingType)] : []),
    ...r.objects.map(
      (o) =>
        `<Contents>${element("Key", name(o.key))}${element("LastModified", new Date(o.lastModified).toISOString())}${element("ETag", o.etag)}${element("Size", o.size)}${element("StorageClass", "STANDARD")}</Contents>`,
    ),
    ...r.commonPrefixes.map((p) => `<CommonPrefixes>${element("Prefix", name(p))}</CommonPrefixes>`),
  ];
  return `${DECLARATION}<ListBucketResult xmlns="${NAMESPACE}">${parts.join("")}</ListBucketResult>`;
}
