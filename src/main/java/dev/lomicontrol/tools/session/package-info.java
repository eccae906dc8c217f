/**
 * The session tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.tools.session;

import org.jspecify.annotations.NullMarked;
