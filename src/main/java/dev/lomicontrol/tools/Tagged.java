package dev.lomicontrol.tools;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A sealed interface whose variants are told apart by one string field (the {@link Tag} of each variant), e.g. {@code {type:"create", …}}; the variants do not declare that field themselves. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE})
public @interface Tagged {
    /** The discriminator's field name. */
    String value() default "type";
}
