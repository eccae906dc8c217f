package dev.lomicontrol.core;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a record with one {@code String} component as a scalar that travels as a JSON string: its
 * length (in code points, as JSON Schema counts) and its pattern (matched whole) are the one rule
 * both the published schema and the argument binder of {@code dev.lomicontrol.tools} apply.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface WireString {

    int minLength() default 1;

    int maxLength();

    /** A regular expression the whole value must match; empty for none. */
    String pattern() default "";

    /** What the value is, for the published schema. */
    String description() default "";
}
