package dev.lomicontrol.operations.api;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Default;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Inline;
import dev.lomicontrol.tools.OperationView;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.Token;
import dev.lomicontrol.tools.ToolSpec;
import dev.lomicontrol.tools.Untagged;
import java.util.List;
import java.util.Optional;

/** The operation tools (SPEC §6): read a receipt by id or by key, cancel one, read the durable state feed of a workspace. */
public final class OperationSpecs {

    private OperationSpecs() {}

    /** Exactly one form: {@code {operationId}} or the receipt key. */
    @Untagged
    public sealed interface Lookup {}

    public record ById(OperationId operationId) implements Lookup {}

    public record ByKey(
            @Doc("key form: as sent") RetryEpochId retryEpoch,

            @Doc("key form: as sent") RequestKey requestKey,

            @Doc("key form: as sent") Token tool,

            @Doc("key form: when the connection has several")
            Optional<ProjectId> projectId)
            implements Lookup {}

    public record Cancel(OperationId operationId) {}

    /** What a cancel did, besides the operation as it now stands. */
    public enum CancelOutcome {
        CANCELLED,
        STOP_REQUESTED,
        UNCHANGED
    }

    public record Cancelled(
            @Inline OperationView operation,

            @Doc("cancelled (it had not started), stop_requested (it was running) or unchanged (it had finished)")
            CancelOutcome cancel,

            @Doc("whether a native stop request was made (a terminal: one Ctrl+C)")
            boolean stopRequested,

            @Doc("whether the stop request reached the resource")
            boolean stopDelivered) {}

    public record EventsRead(
            WorkspaceId workspaceId,

            @Range(min = 1, max = 500) @Default("100") int limit,

            Optional<Decimal> cursor) {}

    @Tag("events")
    public record Events(
            WorkspaceId workspaceId,
            @Doc("operation state changes, oldest first") List<Event> events,

            @Doc("where to continue; keep reading with it after an empty page")
            Decimal nextCursor,

            @Doc("whether more events are available now") boolean hasMore,

            @Doc("whether events were skipped (never: the feed is durable)")
            boolean gap) {}

    public record Event(
            @Doc("position in the feed") long sequence,
            @Doc("'operation_state'") String kind,
            OperationId operationId,
            @Doc("its tool") String tool,
            @Doc("the state it entered") OperationView.State state,
            @Doc("its effect") OperationView.EffectKind effectState,
            @Doc("when, ISO-8601 UTC") String timestamp,
            @Doc("when, Unix seconds") long timestampSeconds) {}

    public static final ToolSpec<Lookup> GET = ToolSpec.read(
                    "lomi_operation_get",
                    "Read an operation",
                    "workspace.read",
                    "R-I-",
                    Lookup.class,
                    OperationView.class,
                    "Reads one of your operations by operationId, or by the key it was sent with (after a lost or unknown answer).")
            .answeringAnyOperation()
            .waiting("ms to wait for it to settle");

    public static final ToolSpec<Cancel> CANCEL = ToolSpec.change(
                    "lomi_operation_cancel",
                    "Cancel an operation",
                    "workspace.read",
                    "--I-",
                    Cancel.class,
                    Cancelled.class,
                    "Cancels an operation: queued ones end, running ones get a native stop (a terminal gets Ctrl+C). Never undoes an effect.")
            .answeringAnyOperation();

    public static final ToolSpec<EventsRead> EVENTS = ToolSpec.read(
                    "lomi_events_read",
                    "Read operation events",
                    "workspace.read",
                    "R-I-",
                    EventsRead.class,
                    Events.class,
                    "The feed of operation state changes in one workspace, paged by cursor.")
            .waiting("ms to wait for an event past the cursor");

    public static final List<ToolSpec<?>> ALL = List.of(GET, CANCEL, EVENTS);
}
