package dev.lomicontrol.decisions;

import dev.lomicontrol.core.OperationId;
import java.time.Instant;

/**
 * An operation in {@code awaiting_user} with the exact plan the admin approves or rejects.
 *
 * @param plan the immutable plan as JSON text, shown verbatim to the admin
 */
public record PendingDecision(OperationId operationId, String tool, String summary, String plan, Instant postedAt) {}
