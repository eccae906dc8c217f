/**
 * JSON trees through Jackson's streaming layer alone ({@link dev.lomicontrol.json.StreamingJson}):
 * for the code the MCP helper runs, which builds no {@code ObjectMapper} (ADR 0015). Depends on no
 * other module.
 */
@NullMarked
package dev.lomicontrol.json;

import org.jspecify.annotations.NullMarked;
