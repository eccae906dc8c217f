package dev.lomicontrol.tools;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A sealed interface whose variants are told apart by their fields: exactly one variant may have all its required fields present and every present field among its own. At the root of an input it is published flattened (one closed object; model APIs refuse a root oneOf). */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE})
public @interface Untagged {}
