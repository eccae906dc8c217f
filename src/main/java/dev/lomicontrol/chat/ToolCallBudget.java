package dev.lomicontrol.chat;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The Chat AI's limits for one request (seed 002, SPEC §7): at most 128 tool calls, 64 KiB of
 * arguments per call, 8 MiB per result and 16 MiB of results in total; and the registry of call
 * ids, so that a duplicate id is refused instead of run twice. A refusal is the reason, given to
 * the model as the call's result; a refused call has no effect (it is never run).
 */
public final class ToolCallBudget {

    public static final int MAX_CALLS = 128;
    public static final int MAX_ARGUMENT_BYTES = 64 * 1024;
    public static final int MAX_RESULT_BYTES = 8 * 1024 * 1024;
    public static final int MAX_TOTAL_RESULT_BYTES = 16 * 1024 * 1024;

    private final Set<String> ids = new HashSet<>();
    private int calls;
    private long resultBytes;

    /** Whether the call may run; empty = yes (it is counted and its id registered), else why not. */
    public synchronized Optional<String> admitCall(String id, int argumentBytes) {
        if (id == null || id.isEmpty()) {
            return Optional.of("INVALID_ARGUMENT: a tool call needs an id");
        }
        if (!ids.add(id)) {
            return Optional.of(
                    "INVALID_ARGUMENT: tool call id " + id + " was already used in this request; it is not run again");
        }
        if (calls >= MAX_CALLS) {
            return Optional.of(
                    "RESOURCE_EXHAUSTED: at most " + MAX_CALLS + " tool calls per request; this one was not run");
        }
        if (argumentBytes > MAX_ARGUMENT_BYTES) {
            return Optional.of("PAYLOAD_TOO_LARGE: tool arguments are at most 64 KiB (" + argumentBytes
                    + " bytes); this call was not run");
        }
        calls++;
        return Optional.empty();
    }

    /** Whether a result of {@code bytes} may reach the model; empty = yes (counted), else why not. */
    public synchronized Optional<String> admitResult(long bytes) {
        if (bytes > MAX_RESULT_BYTES) {
            return Optional.of(
                    "PAYLOAD_TOO_LARGE: a tool result is at most 8 MiB (" + bytes + " bytes); it was not passed on");
        }
        if (resultBytes + bytes > MAX_TOTAL_RESULT_BYTES) {
            return Optional.of(
                    "PAYLOAD_TOO_LARGE: tool results are at most 16 MiB per request; this one was not passed on");
        }
        resultBytes += bytes;
        return Optional.empty();
    }

    public synchronized int calls() {
        return calls;
    }
}
