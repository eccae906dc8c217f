package dev.lomicontrol.tools;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A regular expression a {@code String} field must match whole; published as {@code pattern} (anchored).
 *
 * <p>A published pattern is compiled by clients in ECMAScript with the {@code u} flag (Ajv), in
 * Python's {@code re} (jsonschema) and here in Java, and must mean the same in all three: no
 * {@code \p{…}} classes, inline flags such as {@code (?i)}, possessive or atomic groups, {@code \h},
 * {@code \z} or lookbehind; no {@code \s}, {@code \w}, {@code \b} or {@code .}, whose sets differ.
 * Spell a character as a backslash-u escape of four hex digits and a class as explicit ranges (the
 * constants below). {@code SchemaPortabilityTests} checks every pattern in every dialect.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT})
public @interface Matches {

    /** The control characters as a class body (C0, DEL, C1: exactly Java's {@code \p{Cc}}). */
    String CONTROLS = "\\u0000-\\u001f\\u007f-\\u009f";

    /** One or more characters, none a control character (C0, DEL, C1). */
    String NO_CONTROLS = "[^" + CONTROLS + "]+";

    /** A lookahead: some character is not a space (U+0020; the other ASCII blanks are controls). */
    String NOT_ONLY_SPACES = "(?=[ ]*[^ ])";

    /** An {@code http} or {@code https} scheme in any case, with its {@code ://}. */
    String HTTP_SCHEME = "[Hh][Tt][Tt][Pp][Ss]?://";

    String value();
}
