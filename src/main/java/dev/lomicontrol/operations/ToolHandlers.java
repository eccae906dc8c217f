package dev.lomicontrol.operations;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.HostProbe;
import dev.lomicontrol.tools.HostQualification;
import dev.lomicontrol.tools.ToolSpec;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The broker's dispatch: each declared tool's handler, registered by the feature that serves it.
 * A handler gets the arguments already bound into the tool's input record and returns the output
 * record (or, for operations, the operation view); the scope check happened before it.
 */
public final class ToolHandlers {

    /** Serves one tool: {@code input} is bound and valid; the answer is encoded by the caller. */
    @FunctionalInterface
    public interface Handler<I> {
        Object handle(Session session, I input);
    }

    /** Serves a tool that waits ({@code waitMs}) itself: {@code wait} is the validated wait, zero when none was asked for. */
    @FunctionalInterface
    public interface WaitingHandler<I> {
        Object handle(Session session, I input, Duration wait);
    }

    private record Entry<I>(ToolSpec<I> spec, WaitingHandler<I> handler) {

        /**
         * Binds first (so the broker refuses exactly what the helper refuses), then the scopes the
         * input's variant needs beyond the tool's own, then a host that cannot serve the tool says why.
         */
        Object call(Session session, tools.jackson.databind.JsonNode arguments, HostProbe host) {
            I input = spec.bind(arguments);
            for (dev.lomicontrol.tools.ScopeNeed need : spec.variantScopesOf(input)) {
                if (!session.grant().allows(need.scope())) {
                    throw new LomiException(ErrorCode.SCOPE_DENIED, need.refusal());
                }
            }
            Optional<String> unqualified = HostQualification.reason(spec, host);
            if (unqualified.isPresent()) {
                throw new LomiException(ErrorCode.HOST_UNQUALIFIED, spec.name() + ": " + unqualified.get());
            }
            return handler.handle(session, input, spec.waitOf(arguments));
        }
    }

    private final Map<String, Entry<?>> handlers = new LinkedHashMap<>();
    private final Optional<OperationWaits> operations;
    /** The host each call is checked against (HOST_UNQUALIFIED), probed anew per call. */
    private final Supplier<HostProbe> host;

    /** Handlers whose OP tools answer at once (waitMs has no effect): for tests of the dispatch itself. */
    public ToolHandlers() {
        this.operations = Optional.empty();
        this.host = HostProbe::current;
    }

    /** Handlers whose OP tools' answers wait through {@code operations} when the call asks to; the host is this process's. */
    public ToolHandlers(OperationWaits operations) {
        this(operations, HostProbe::current);
    }

    /**
     * As above, each call checked against the host {@code host} probes ({@link HostProbe#current} in the
     * broker; a test's own environment — an SDK in a temp directory — in tests).
     */
    public ToolHandlers(OperationWaits operations, Supplier<HostProbe> host) {
        this.operations = Optional.of(operations);
        this.host = host;
    }

    /**
     * Registers the handler of {@code spec}; a second handler for one tool is a wiring error. An OP
     * tool's answer (the operation) then waits as its {@code waitMs} asks (see {@link OperationWaits});
     * a read that takes waitMs and is registered here answers at once.
     */
    public <I> void on(ToolSpec<I> spec, Handler<I> handler) {
        if (spec.effect() == dev.lomicontrol.tools.Effect.OP && operations.isPresent()) {
            OperationWaits waits = operations.get();
            onWaiting(
                    spec,
                    (session, input, wait) -> waits.ownAnswer(session, spec, handler.handle(session, input), wait));
        } else {
            onWaiting(spec, (session, input, wait) -> handler.handle(session, input));
        }
    }

    /** Registers the handler of a tool that does its own waiting. */
    public <I> void onWaiting(ToolSpec<I> spec, WaitingHandler<I> handler) {
        if (handlers.putIfAbsent(spec.name(), new Entry<>(spec, handler)) != null) {
            throw new IllegalStateException("two handlers for " + spec.name());
        }
    }

    /** The host calls are checked against, as probed now. */
    public HostProbe host() {
        return host.get();
    }

    public boolean handles(String tool) {
        return handlers.containsKey(tool);
    }

    public Optional<ToolSpec<?>> spec(String tool) {
        return Optional.ofNullable(handlers.get(tool)).map(Entry::spec);
    }

    /** Binds the arguments (INVALID_ARGUMENT on a refusal) and runs the handler. */
    public Object call(Session session, String tool, tools.jackson.databind.JsonNode arguments) {
        return Objects.requireNonNull(handlers.get(tool), () -> "no handler for " + tool)
                .call(session, arguments, host.get());
    }

    /**
     * Start-up check: every broker-answered tool of {@code catalog} has exactly one handler and no
     * handler serves a tool outside it (IllegalStateException naming them, so the broker never starts
     * with a gap in its dispatch).
     */
    public void requireCovers(java.util.List<ToolSpec<?>> catalog) {
        java.util.List<String> missing = catalog.stream()
                .filter(spec -> !spec.helperAnswers())
                .map(ToolSpec::name)
                .filter(name -> !handlers.containsKey(name))
                .toList();
        java.util.List<String> extra = handlers.keySet().stream()
                .filter(name -> catalog.stream().noneMatch(spec -> spec.name().equals(name)))
                .toList();
        if (!missing.isEmpty() || !extra.isEmpty()) {
            throw new IllegalStateException("the broker's tool handlers do not match the catalog: no handler for "
                    + missing + "; handlers for unknown tools " + extra);
        }
    }
}
