package dev.lomicontrol.ledger;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.core.ToolName;
import java.time.Instant;
import java.util.Optional;

/**
 * A durable operation receipt as stored. {@code result} is the typed result as JSON text, set once;
 * {@code errorCode} names the failure of a failed operation and {@code errorMessage} says what was
 * wrong and what to do next (absent on rows settled before it was recorded); {@code resolution} is the admin's
 * recorded finding for an {@code outcome_unknown} row (the state itself never changes).
 */
public record Operation(
        OperationId id,
        SessionId session,
        RetryEpochId retryEpoch,
        ProjectId project,
        ToolName tool,
        RequestKey requestKey,
        Optional<String> workspaceId,
        OperationState state,
        EffectState effect,
        Optional<String> result,
        Optional<String> errorCode,
        Optional<String> errorMessage,
        Instant createdAt,
        Instant updatedAt,
        Optional<Instant> completedAt,
        Instant retainUntil,
        Optional<Resolution> resolution) {

    /** The admin's reconciliation of an {@code outcome_unknown} operation against reality. */
    public record Resolution(OperationState finding, String note, Instant at) {}
}
