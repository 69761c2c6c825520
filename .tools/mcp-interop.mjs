// mcp-interop.mjs drives `cadrun mcp` with the official MCP TypeScript SDK, a client nobody in
// this repository wrote, so that the Go server is checked against another implementation of
// the protocol and not only against the Go SDK it is built with.
//
//   node mcp-interop.mjs /path/to/cadrun /path/to/workspace
//
// On success it prints one JSON line summarising what it saw and exits 0; on failure it prints
// what went wrong (with the server's stderr) and exits 1. cmd/cadrun/interop_test.go runs it.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

class Failure extends Error {}

function check(ok, message) {
  if (!ok) throw new Failure(message);
}

function text(result) {
  return (result.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

async function main(bin, workspace) {
  const transport = new StdioClientTransport({
    command: bin,
    args: ["mcp", "-workspace", workspace],
    env: { ...process.env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const client = new Client({ name: "cadrun-interop", version: "0.0.0" });
  const summary = {};
  try {
    await client.connect(transport);
    const server = client.getServerVersion();
    check(server?.name === "cadrun", `server name: ${JSON.stringify(server)}`);
    summary.server = server.name;

    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const want of ["write", "read", "scene"]) {
      check(names.includes(want), `tool ${want} missing from ${JSON.stringify(names)}`);
    }
    summary.tools = names;

    const code = "drawCircle('wheel', 0, 0, 5)\ndrawRect('body', 0, 8, 20, 6)\n";
    let res = await client.callTool({ name: "write", arguments: { file: "main", code } });
    check(!res.isError, `write failed: ${text(res)}`);

    res = await client.callTool({ name: "scene", arguments: { command: "png" } });
    check(!res.isError, `scene png failed: ${text(res)}`);
    const image = (res.content ?? []).find((c) => c.type === "image");
    check(image, `scene png: no image content in ${JSON.stringify(res.content).slice(0, 300)}`);
    check(image.mimeType === "image/png", `scene png: mimeType ${image.mimeType}`);
    const png = Buffer.from(image.data, "base64");
    check(
      png.subarray(0, 8).equals(PNG_SIGNATURE),
      `scene png: data starts with ${png.subarray(0, 8).toString("hex")}, not the PNG signature`,
    );
    summary.png_bytes = png.length;

    res = await client.callTool({
      name: "write",
      arguments: { file: "main", code: "drawCirle('wheel', 0, 0, 5)\n" },
    });
    check(res.isError === true, `a failing write answered isError=${res.isError}: ${text(res)}`);
    check(text(res).includes("not applied"), `a failing write: no "not applied" in ${JSON.stringify(text(res))}`);
    summary.failed_write = text(res).split("\n")[0];

    res = await client.callTool({ name: "read", arguments: { file: "main" } });
    check(!res.isError, `read failed: ${text(res)}`);
    check(
      res.structuredContent?.content === code,
      `main changed after a failing write: ${JSON.stringify(res.structuredContent ?? text(res))}`,
    );
    summary.unchanged = true;
  } catch (err) {
    const what = err instanceof Failure ? err.message : err?.stack ?? String(err);
    console.log(`FAIL: ${what}\nserver stderr:\n${stderr}`);
    await client.close().catch(() => {});
    return 1;
  }
  await client.close();
  console.log(JSON.stringify({ ok: true, ...summary }));
  return 0;
}

if (process.argv.length !== 4) {
  console.error("usage: node mcp-interop.mjs CADRUN_BINARY WORKSPACE_DIR");
  process.exit(2);
}
process.exit(await main(process.argv[2], process.argv[3]));
