// The public API's reference page (/docs/api, decision 053), rendered on the server from the OpenAPI document
// itself (no CDN, no script needed): every operation with its parameters and answer, and every schema with its
// fields. What the page says is what /api/v1/openapi.json says.
import type { CSSProperties, ReactNode } from "react";

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
}
interface OperationDoc {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  responses: Record<string, { description?: string; content?: Record<string, { schema: Json }> }>;
}
export interface OpenApiDoc {
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, OperationDoc>>;
  components?: { schemas?: Record<string, Json> };
}

const refName = (ref: string) => ref.split("/").pop() ?? ref;

/** A schema in a few words: "Product", "array of Money", "integer | null", "one of a, b". */
export function typeOf(schema: Json | undefined): ReactNode {
  if (!schema) return "any";
  if (typeof schema.$ref === "string") {
    const name = refName(schema.$ref);
    return <a href={`#schema-${name}`}>{name}</a>;
  }
  const union = (schema.anyOf ?? schema.oneOf ?? schema.allOf) as Json[] | undefined;
  if (union) return union.map((s, i) => <span key={i}>{i > 0 ? " | " : ""}{typeOf(s)}</span>);
  if (Array.isArray(schema.enum)) return `one of ${(schema.enum as unknown[]).map(String).join(", ")}`;
  if ("const" in schema) return JSON.stringify(schema.const);
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : [];
  return types
    .map((t) => (t === "array" ? "array of " : t === "string" && schema.format ? `string (${String(schema.format)})` : t))
    .map((t, i) => (
      <span key={i}>
        {i > 0 ? " | " : ""}
        {t}
        {t === "array of " ? typeOf(schema.items as Json) : null}
      </span>
    ));
}

const table: CSSProperties = { borderCollapse: "collapse", width: "100%", margin: "8px 0 16px" };
const cell: CSSProperties = { border: "1px solid #ddd", padding: "4px 8px", textAlign: "left", verticalAlign: "top" };
const code: CSSProperties = { fontFamily: "ui-monospace, monospace", fontSize: "0.95em" };

function Fields({ schema }: { schema: Json }) {
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  if (Object.keys(props).length === 0) return <p>{typeOf(schema)}</p>;
  return (
    <table style={table}>
      <thead>
        <tr>
          <th style={cell}>Field</th>
          <th style={cell}>Type</th>
          <th style={cell}>Description</th>
        </tr>
      </thead>
      <tbody>
        {Object.entries(props).map(([name, s]) => (
          <tr key={name}>
            <td style={{ ...cell, ...code }}>
              {name}
              {required.has(name) ? "" : "?"}
            </td>
            <td style={cell}>{typeOf(s)}</td>
            <td style={cell}>{typeof s.description === "string" ? s.description : ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ApiReference({ doc, keysUrl }: { doc: OpenApiDoc; keysUrl: string }) {
  const base = doc.servers?.[0]?.url ?? "/api/v1";
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
  return (
    <main style={{ maxWidth: 960, margin: "0 auto", padding: "24px 16px", lineHeight: 1.5 }}>
      <h1>
        {doc.info.title} <small>v{doc.info.version}</small>
      </h1>
      <p>{doc.info.description}</p>
      <h2 id="auth">Authentication and limits</h2>
      <p>
        Create a key on <a href={keysUrl}>your account page</a> and send it on every call as <code style={code}>Authorization: Bearer wpk_…</code>.
        Cookies are ignored; any origin may call (CORS). Base URL: <code style={code}>{base}</code>. The machine-readable document:{" "}
        <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1). For AI assistants, see <a href="/docs/mcp">the MCP server</a>.
        A call without a key is 401 with <code style={code}>WWW-Authenticate: Bearer realm=&quot;api&quot;</code>; a key that is malformed, unknown
        or revoked adds <code style={code}>error=&quot;invalid_token&quot;</code> (RFC 6750).
      </p>
      <p>
        Each key, and each account across its keys, may make 120 calls a minute; a monthly allowance applies by plan. Every answer carries
        <code style={code}> RateLimit-Limit</code>, <code style={code}>RateLimit-Remaining</code>, <code style={code}>RateLimit-Reset</code> and
        <code style={code}> X-Allowance-Remaining</code>; over the limit the answer is 429 with <code style={code}>Retry-After</code> and a sentence.
      </p>
      <pre style={{ ...code, background: "#f6f6f6", padding: 12, overflowX: "auto" }}>
        {`curl -H "Authorization: Bearer $WP_KEY" "${base}/products?niche=kitchen&sort=storesAdded7d&limit=5"`}
      </pre>
      <h2 id="operations">Operations</h2>
      <ul>
        {operations.map(({ path, method, op }) => (
          <li key={op.operationId}>
            <a href={`#op-${op.operationId}`} style={code}>
              {method.toUpperCase()} {path}
            </a>{" "}
            {op.summary}
          </li>
        ))}
      </ul>
      {operations.map(({ path, method, op }) => {
        const ok = op.responses["200"]?.content?.["application/json"]?.schema;
        return (
          <section key={op.operationId} id={`op-${op.operationId}`} style={{ borderTop: "1px solid #ddd", paddingTop: 8 }}>
            <h3 style={code}>
              {method.toUpperCase()} {base}
              {path}
            </h3>
            <p>
              <strong>{op.summary}</strong> {op.description ?? ""} <span style={code}>operationId: {op.operationId}</span>
            </p>
            {op.parameters && op.parameters.length > 0 ? (
              <table style={table}>
                <thead>
                  <tr>
                    <th style={cell}>Parameter</th>
                    <th style={cell}>In</th>
                    <th style={cell}>Type</th>
                    <th style={cell}>Description</th>
                  </tr>
                </thead>
                <tbody>
                  {op.parameters.map((p) => (
                    <tr key={`${p.in}-${p.name}`}>
                      <td style={{ ...cell, ...code }}>
                        {p.name}
                        {p.required ? "" : "?"}
                      </td>
                      <td style={cell}>{p.in}</td>
                      <td style={cell}>{typeOf(p.schema)}</td>
                      <td style={cell}>{p.description ?? (typeof p.schema?.description === "string" ? p.schema.description : "")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            <p>
              200: {typeOf(ok)}. Errors: {Object.keys(op.responses).filter((s) => s !== "200").join(", ")} as <a href="#schema-Error">Error</a>.
            </p>
          </section>
        );
      })}
      <h2 id="schemas">Schemas</h2>
      {Object.entries(doc.components?.schemas ?? {}).map(([name, schema]) => (
        <section key={name} id={`schema-${name}`}>
          <h3 style={code}>{name}</h3>
          {typeof schema.description === "string" ? <p>{schema.description}</p> : null}
          <Fields schema={schema} />
        </section>
      ))}
    </main>
  );
}
