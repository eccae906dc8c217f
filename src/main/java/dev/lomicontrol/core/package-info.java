/** Shared vocabulary: validated ids, the error code enum and the exception that carries it. */
package dev.lomicontrol.core;
