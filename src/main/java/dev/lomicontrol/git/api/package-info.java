/**
 * The git tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.git.api;

import org.jspecify.annotations.NullMarked;
