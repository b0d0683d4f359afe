// Package quota meters the telemetry-upload requests a robot reserves for a
// day and prices them by volume tier.
package quota

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Limit is the exclusive upper bound on the number of upload requests a
// single robot may reserve per day.
const Limit = 2_000_000

// TierWidth is the number of requests covered by one pricing tier.
const TierWidth = 100_000

// tierRate is the price, in millicredits per 1,000 requests, of each volume
// tier. Tier i covers reservations of [i*TierWidth, (i+1)*TierWidth)
// requests; larger reservations get a volume discount.
var tierRate = [Limit / TierWidth]uint32{
	1000, 1000, 980, 960, 940,
	920, 900, 880, 860, 840,
	820, 800, 790, 780, 770,
	760, 750, 740, 730, 720,
}

// RequestLen is the wire size of a reservation request: a little-endian
// uint16 robot number followed by a little-endian uint32 request count.
const RequestLen = 6

var (
	ErrShort     = errors.New("quota: short request")
	ErrOverQuota = errors.New("quota: reservation exceeds daily limit")
)

// Request is a robot's reservation for the day.
type Request struct {
	Robot uint16
	Count uint32
}

// Decode parses a reservation request from its wire form.
func Decode(b []byte) (Request, error) {
	if len(b) < RequestLen {
		return Request{}, ErrShort
	}
	return Request{
		Robot: binary.LittleEndian.Uint16(b[0:2]),
		Count: binary.LittleEndian.Uint32(b[2:6]),
	}, nil
}

// Encode returns the wire form of r.
func Encode(r Request) []byte {
	b := make([]byte, RequestLen)
	binary.LittleEndian.PutUint16(b[0:2], r.Robot)
	binary.LittleEndian.PutUint32(b[2:6], r.Count)
	return b
}

// tierOf returns the pricing tier for a reservation of n requests.
func tierOf(n uint32) uint32 {
	return n / TierWidth
}

// Price returns the cost of r in millicredits.
func Price(r Request) (uint64, error) {
	if r.Count > Limit {
		return 0, fmt.Errorf("%w: robot %d asked for %d", ErrOverQuota, r.Robot, r.Count)
	}
	rate := tierRate[tierOf(r.Count)]
	// Round up to the next whole millicredit.
	return (uint64(r.Count)*uint64(rate) + 999) / 1000, nil
}

// Quote decodes a wire request and prices it.
func Quote(b []byte) (uint64, error) {
	r, err := Decode(b)
	if err != nil {
		return 0, err
	}
	return Price(r)
}
