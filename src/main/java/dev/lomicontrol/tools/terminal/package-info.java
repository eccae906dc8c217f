/**
 * The terminal tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.tools.terminal;

import org.jspecify.annotations.NullMarked;
