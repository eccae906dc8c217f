/**
 * The MCP stdio helper ({@code lomi-control --mcp}, SPEC §7): its own JSON-RPC 2.0 layer on a
 * byte-level line reader, protocol negotiation (2024-11-05 … 2025-11-25 and the stateless
 * 2026-07-28), the tool catalog with schemas and validation, and the exactly-once bridge to the
 * broker. It owns no resources and loads no Spring, SQLite or Flyway class. Entry point:
 * {@link dev.lomicontrol.mcp.McpHelper}.
 */
@NullMarked
package dev.lomicontrol.mcp;

import org.jspecify.annotations.NullMarked;
