/**
 * The broker's private transport: length-prefixed frames over a Unix-domain socket, switched in place to
 * mutual TLS 1.3 pinned to exact certificates, behind a blocking one-thread-per-connection facade.
 */
@NullMarked
package dev.lomicontrol.transport;

import org.jspecify.annotations.NullMarked;
