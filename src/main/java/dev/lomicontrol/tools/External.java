package dev.lomicontrol.tools;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A sealed interface in serde's externally tagged form: a variant with fields is {@code {"<tag>": {…}}}, a variant record without components is the bare string {@code "<tag>"}. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE})
public @interface External {}
