package dev.lomicontrol.ledger;

import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.core.ToolName;
import tools.jackson.databind.JsonNode;

/**
 * A request to reserve a durable operation. The receipt key is (session, retryEpoch, project, tool,
 * requestKey); the fingerprint is computed from the validated {@code input} and the broker-resolved
 * {@code target}.
 */
public record ReserveRequest(
        SessionId session,
        RetryEpochId retryEpoch,
        ProjectId project,
        ToolName tool,
        RequestKey requestKey,
        JsonNode input,
        Target target) {}
