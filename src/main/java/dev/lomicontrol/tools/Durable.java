package dev.lomicontrol.tools;

import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;

/** The input of an OP tool: the durable request identity its receipt is keyed by (SPEC §6). */
public interface Durable {

    RetryEpochId retryEpoch();

    RequestKey requestKey();
}
