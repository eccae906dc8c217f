/** The broker process: its Spring application, process-wide beans and lifecycle. */
@NullMarked
package dev.lomicontrol.broker;

import org.jspecify.annotations.NullMarked;
