package dev.lomicontrol.ipc;

import tools.jackson.databind.JsonNode;

/** Helper → broker inside TLS: one tool call. Exactly one may be in flight per connection. */
public record CallRequest(int ipcVersion, String requestId, String tool, JsonNode arguments) {}
