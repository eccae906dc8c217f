package dev.lomicontrol.tools;

import dev.lomicontrol.core.Scope;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one declaration of a tool: everything both processes need — the helper's catalog entry and
 * validation, the broker's binding, scope check and dispatch — derives from it.
 *
 * @param scope the grant scope the broker requires
 * @param input the record (or untagged union of records) its arguments bind into
 * @param output the record its answer's {@code data} is built from ({@link OperationView} for OP tools)
 * @param result for OP tools, the record or tagged union of its operation's {@code result}
 * @param helperAnswers whether the helper answers it itself (status, diagnostics) instead of the broker
 * @param waitDoc the description of its {@link Waiting waitMs} field when it takes one (every OP tool does), else empty
 */
public record ToolSpec<I>(
        String name,
        String title,
        String description,
        Scope scope,
        Effect effect,
        Hints hints,
        Class<I> input,
        Class<?> output,
        Optional<Class<?>> result,
        HostNeed host,
        boolean helperAnswers,
        Optional<String> waitDoc,
        Function<? super I, List<ScopeNeed>> variantScopes) {

    private static final Pattern NAME = Pattern.compile("lomi_[a-z0-9_]{1,123}");

    public ToolSpec {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("invalid tool name " + name);
        }
        if ((effect == Effect.OP) != result.isPresent() && !result.equals(Optional.of(AnyResult.class))) {
            throw new IllegalArgumentException(name + ": an OP tool, and only one, declares its operation result");
        }
        if (hints.readOnly() != (effect == Effect.RO)) {
            throw new IllegalArgumentException(name + ": a readOnly hint on a tool that changes state");
        }
        if ((effect == Effect.OP) && waitDoc.isEmpty()) {
            throw new IllegalArgumentException(name + ": every OP tool takes waitMs");
        }
        if (waitDoc.isPresent() && effect != Effect.OP && effect != Effect.RO) {
            throw new IllegalArgumentException(name + ": only OP tools and reads wait");
        }
    }

    /** A read answered by the broker. */
    public static <I> ToolSpec<I> read(
            String name,
            String title,
            String scope,
            String hints,
            Class<I> input,
            Class<?> output,
            String description) {
        return new ToolSpec<>(
                name,
                title,
                description,
                Scope.of(scope),
                Effect.RO,
                Hints.of(hints),
                input,
                output,
                Optional.empty(),
                HostNeed.NONE,
                false,
                Optional.empty(),
                in -> List.of());
    }

    /** A durable operation; its answer is the operation with a {@code result} of type {@code result}. */
    public static <I> ToolSpec<I> operation(
            String name,
            String title,
            String scope,
            String hints,
            Class<I> input,
            Class<?> result,
            String description) {
        return new ToolSpec<>(
                name,
                title,
                description,
                Scope.of(scope),
                Effect.OP,
                Hints.of(hints),
                input,
                OperationView.class,
                Optional.of(result),
                HostNeed.NONE,
                false,
                Optional.of(Waiting.OPERATION_DOC),
                in -> List.of());
    }

    /** A change without a receipt that is harmless to repeat. */
    public static <I> ToolSpec<I> change(
            String name,
            String title,
            String scope,
            String hints,
            Class<I> input,
            Class<?> output,
            String description) {
        return new ToolSpec<>(
                name,
                title,
                description,
                Scope.of(scope),
                Effect.MUT,
                Hints.of(hints),
                input,
                output,
                Optional.empty(),
                HostNeed.NONE,
                false,
                Optional.empty(),
                in -> List.of());
    }

    /** The same tool, answering operations of any tool (its published result is every OP tool's result). */
    public ToolSpec<I> answeringAnyOperation() {
        return new ToolSpec<>(
                name,
                title,
                description,
                scope,
                effect,
                hints,
                input,
                output,
                Optional.of(AnyResult.class),
                host,
                helperAnswers,
                waitDoc,
                variantScopes);
    }

    /** Ordered input without a receipt ({@code inputSequence}). */
    public static <I> ToolSpec<I> ordered(
            String name,
            String title,
            String scope,
            String hints,
            Class<I> input,
            Class<?> output,
            String description) {
        return new ToolSpec<>(
                name,
                title,
                description,
                Scope.of(scope),
                Effect.ORDERED,
                Hints.of(hints),
                input,
                output,
                Optional.empty(),
                HostNeed.NONE,
                false,
                Optional.empty(),
                in -> List.of());
    }

    /** The same tool, answered by the helper itself. */
    public ToolSpec<I> answeredByHelper() {
        return serving(host, true, waitDoc, variantScopes);
    }

    /** The same tool, needing {@code need} from the host. */
    public ToolSpec<I> needs(HostNeed need) {
        return serving(need, helperAnswers, waitDoc, variantScopes);
    }

    /** The same tool taking {@link Waiting waitMs}, published with {@code description} (what a call waits for). */
    public ToolSpec<I> waiting(String description) {
        return serving(host, helperAnswers, Optional.of(description), variantScopes);
    }

    /**
     * The same tool, whose input variants may need more scopes than its own: {@code needs} names them
     * for a bound input, checked after binding and before the handler (SCOPE_DENIED with the need's refusal).
     */
    public ToolSpec<I> withVariantScopes(Function<? super I, List<ScopeNeed>> needs) {
        return serving(host, helperAnswers, waitDoc, needs);
    }

    /** The same declaration with these serving components (the copies above differ only in them). */
    private ToolSpec<I> serving(
            HostNeed host,
            boolean helperAnswers,
            Optional<String> waitDoc,
            Function<? super I, List<ScopeNeed>> variantScopes) {
        return new ToolSpec<>(
                name,
                title,
                description,
                scope,
                effect,
                hints,
                input,
                output,
                result,
                host,
                helperAnswers,
                waitDoc,
                variantScopes);
    }

    /** The scopes {@code input}, bound for this tool, needs beyond {@link #scope()}. */
    public List<ScopeNeed> variantScopesOf(I input) {
        return variantScopes.apply(input);
    }

    /** Whether it takes {@code waitMs}. */
    public boolean waits() {
        return waitDoc.isPresent();
    }

    /** The validated {@code waitMs} of these arguments (zero when absent, null, or the tool takes none). */
    public java.time.Duration waitOf(tools.jackson.databind.JsonNode arguments) {
        return waits() ? Waiting.of(arguments) : java.time.Duration.ZERO;
    }

    /** The published {@code inputSchema}: one closed object. */
    public ObjectNode inputSchema() {
        ObjectNode schema = SchemaWriter.input(input);
        waitDoc.ifPresent(doc -> ((ObjectNode) schema.get("properties")).set(Waiting.FIELD, Waiting.schema(doc)));
        return schema;
    }

    /** The published {@code outputSchema}: the Control API envelope around this tool's data. */
    public ObjectNode outputSchema() {
        return outputSchema(List.of());
    }

    /**
     * The published {@code outputSchema}; {@code operationResults}: every OP tool's result type, for
     * a tool that answers any operation ({@link AnyResult}; the catalog knows them).
     */
    public ObjectNode outputSchema(List<Class<?>> operationResults) {
        return Envelopes.schema(dataSchema(operationResults));
    }

    /** The schema of the envelope's {@code data} (for OP tools: the operation with this tool's typed result). */
    public ObjectNode dataSchema() {
        return dataSchema(List.of());
    }

    /** The schema of the envelope's {@code data}, {@code operationResults} as in {@link #outputSchema(List)}. */
    public ObjectNode dataSchema(List<Class<?>> operationResults) {
        ObjectNode data = SchemaWriter.output(output);
        if (result.equals(Optional.of(AnyResult.class))) {
            if (operationResults.isEmpty()) {
                throw new IllegalStateException(name + " answers any operation: its schema comes from the catalog"
                        + " (ToolCatalog.outputSchema), which knows every result type");
            }
            OperationView.typeResult(data, operationResults);
        } else {
            result.ifPresent(type -> OperationView.typeResult(data, List.<Class<?>>of(type)));
        }
        return data;
    }

    /**
     * Binds the arguments into the input record — for a waiting tool after checking {@code waitMs}
     * and leaving it out, so the record (and a receipt's fingerprint) never sees it.
     */
    public I bind(tools.jackson.databind.JsonNode arguments) {
        if (!waits()) {
            return Binder.bind(input, arguments);
        }
        Waiting.of(arguments);
        return Binder.bind(input, Waiting.without(arguments));
    }
}
