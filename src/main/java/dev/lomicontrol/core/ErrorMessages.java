package dev.lomicontrol.core;

import org.jspecify.annotations.Nullable;

/**
 * The one check every adapter runs where it encodes an error (a broker envelope, an MCP result, a
 * stored operation error): a refusal never reaches a model without a message. A message that is
 * null or blank is a bug at the refusing site; in a strict run ({@code -Dlomi.strict-errors=true},
 * which the build sets for every test JVM and the tests pass on to the broker and helper JVMs they
 * start) it fails loudly with an {@link AssertionError}, otherwise the code's
 * {@link ErrorCode#nextStep() generic next step} stands in for it.
 */
public final class ErrorMessages {

    /** The system property that turns a missing message into an {@link AssertionError}. */
    public static final String STRICT_PROPERTY = "lomi.strict-errors";

    private ErrorMessages() {}

    /** {@code message} when it says anything; otherwise the code's next step (or, when strict, an AssertionError). */
    public static String of(ErrorCode code, @Nullable String message) {
        if (message != null && !message.isBlank()) {
            return message;
        }
        if (strict()) {
            AssertionError missing = new AssertionError(STRICT_PROPERTY + ": a " + code
                    + " error was encoded with " + (message == null ? "a null" : "an empty")
                    + " message; the refusing site must say what was wrong and what to do next");
            missing.printStackTrace();
            throw missing;
        }
        return code.nextStep();
    }

    /** The SCOPE_DENIED message for {@code what} (a tool, or a form of one) that needs {@code scope}. */
    public static String missingScope(String what, String scope) {
        return what + " needs the " + scope + " scope, which this session was not granted; use a tool within the"
                + " session's scopes, or ask the user to pair again granting " + scope;
    }

    /** Whether this JVM runs with {@value #STRICT_PROPERTY} (read on each call, so a test can switch it). */
    public static boolean strict() {
        return Boolean.getBoolean(STRICT_PROPERTY);
    }
}
