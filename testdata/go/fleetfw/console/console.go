// Package console implements the robots' service console.
//
// Technicians drive the console over the maintenance UART. The stream is a
// sequence of commands, each a short ASCII name immediately followed by one
// raw count byte, e.g. "ping\x03" or "led\xff". Line noise between commands
// is skipped.
package console

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// ErrTruncated is returned when the stream ends between a command name and
// its count byte.
var ErrTruncated = errors.New("console: command missing its count byte")

// NumJoints is the number of joints on the manipulator arm.
const NumJoints = 3

// maxRehomePasses is the number of settle passes the rehome routine keeps.
const maxRehomePasses = 4

// Arm is the console's view of the manipulator arm.
type Arm struct {
	// Offsets are the encoder offsets, in counts, found at the last rehome.
	Offsets [NumJoints]int16
}

// settle returns the residual error of joint j on the given settle pass.
// The simulated arm halves its error on every pass.
func (a *Arm) settle(j, pass int) int16 {
	return int16(int(a.Offsets[j]) >> pass)
}

// Console is the state a console session operates on.
type Console struct {
	Arm        Arm
	Brightness uint8
	Stopped    bool
	Noise      int // bytes skipped because they started no command
}

type command struct {
	name string
	run  func(c *Console, count byte) string
}

var commands = []command{
	{"status", (*Console).status},
	{"ping", (*Console).ping},
	{"led", (*Console).led},
	{"stop", (*Console).stop},
	{"rehome-arm", (*Console).rehome},
}

func (c *Console) status(byte) string {
	return fmt.Sprintf("ok stopped=%t led=%d offsets=%v", c.Stopped, c.Brightness, c.Arm.Offsets)
}

func (c *Console) ping(count byte) string {
	if count == 0 {
		count = 1
	}
	return strings.TrimSpace(strings.Repeat("pong ", int(count)))
}

func (c *Console) led(level byte) string {
	c.Brightness = level
	return fmt.Sprintf("led %d", level)
}

func (c *Console) stop(byte) string {
	c.Stopped = true
	return "stopped"
}

// rehome runs the given number of settle passes on every joint and stores
// the average residual as the joint's new offset.
func (c *Console) rehome(passes byte) string {
	if passes == 0 {
		passes = 1
	}
	for j := range c.Arm.Offsets {
		var residual [maxRehomePasses]int16
		for p := 0; p < int(passes); p++ {
			residual[p] = c.Arm.settle(j, p)
		}
		c.Arm.Offsets[j] = mean(residual[:passes])
	}
	return fmt.Sprintf("rehomed in %d passes", passes)
}

func mean(v []int16) int16 {
	var sum int
	for _, x := range v {
		sum += int(x)
	}
	return int16(sum / len(v))
}

// lookup returns the command whose name starts the stream, if any.
func lookup(stream []byte) (command, bool) {
	for _, cmd := range commands {
		if bytes.HasPrefix(stream, []byte(cmd.name)) {
			return cmd, true
		}
	}
	return command{}, false
}

// Run executes every command in stream and returns the replies in order.
func (c *Console) Run(stream []byte) ([]string, error) {
	var replies []string
	for i := 0; i < len(stream); {
		cmd, ok := lookup(stream[i:])
		if !ok {
			c.Noise++
			i++
			continue
		}
		i += len(cmd.name)
		if i >= len(stream) {
			return replies, fmt.Errorf("%w: %s", ErrTruncated, cmd.name)
		}
		replies = append(replies, cmd.run(c, stream[i]))
		i++
	}
	return replies, nil
}
