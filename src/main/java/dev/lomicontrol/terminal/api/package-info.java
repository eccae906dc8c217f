/**
 * The terminal tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.terminal.api;

import org.jspecify.annotations.NullMarked;
