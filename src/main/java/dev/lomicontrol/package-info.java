/**
 * The executable's entry points: {@link dev.lomicontrol.LomiControl} picks the mode before any Spring
 * context exists, and {@link dev.lomicontrol.BrokerApplication} is the broker daemon.
 */
@NullMarked
package dev.lomicontrol;

import org.jspecify.annotations.NullMarked;
