/** Shared vocabulary: validated ids, the error code enum and the exception that carries it. */
@NullMarked
package dev.lomicontrol.core;

import org.jspecify.annotations.NullMarked;
