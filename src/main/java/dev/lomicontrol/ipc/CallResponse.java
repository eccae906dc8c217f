package dev.lomicontrol.ipc;

import tools.jackson.databind.JsonNode;

/** Broker → helper inside TLS: the result envelope of SPEC §4 for the request with the same id. */
public record CallResponse(String requestId, JsonNode result) {}
