/** The broker process: its Spring application, process-wide beans and lifecycle. */
package dev.lomicontrol.broker;
