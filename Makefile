# Herald — the two commands:
#   make run    install what is missing, build release, serve http://127.0.0.1:8080 with demo content
#   make test   run the whole test suite (what CI runs)

SHELL := /bin/bash
APT_PACKAGES := libmicrohttpd-dev libsodium-dev libsqlite3-dev zlib1g-dev libbrotli-dev libzstd-dev libpq-dev libcurl4-openssl-dev libcmark-gfm-dev libcmark-gfm-extensions-dev pkg-config
# What only the tests need: a real SMTP server for the mail tests (Tests/mail/smtp_sink.py).
TEST_APT_PACKAGES := python3-aiosmtpd
HOST ?= 127.0.0.1
PORT ?= 8080
DATA ?= ./data

.PHONY: run test deps build release format bench-templates fuzz browser-test

run: deps release
	./.build/release/herald serve --host $(HOST) --port $(PORT) --data $(DATA)

test: deps
	@./scripts/install-deps.sh $(TEST_APT_PACKAGES)
	./scripts/check-layers.sh
	swift build --build-tests
	# `make run` builds release, which compiles each module whole: prove it builds too.
	swift build -c release --product herald
	swift test --skip-build --parallel
	./scripts/test-postgres.sh
	HERALD_BINARY=.build/debug/herald python3 Tests/cluster/test_cluster.py
	./scripts/ops-test.sh --no-build
	./scripts/encoding-test.sh --no-build
	python3 Benchmarks/hostile.py --binary .build/debug/herald --seconds 1.5
	./scripts/browser-test.sh --no-build
	./scripts/fuzz.sh 3

deps:
	@./scripts/install-deps.sh $(APT_PACKAGES)

build:
	swift build

release:
	swift build -c release --product herald

format:
	swift format --in-place --recursive Sources Tests Benchmarks Package.swift

bench-templates:
	./Benchmarks/templates.sh

fuzz:
	./scripts/fuzz.sh 60

browser-test:
	./scripts/browser-test.sh
