// Random playouts of treason (github.com/octachrome/treason, a JavaScript Coup server),
// to compare its engine's speed with ours on the same kind of games:
//
//   git clone https://github.com/octachrome/treason && cd treason && npm install
//   cp /path/to/this/bench/peers/treason.js bench.js && node bench.js 3 4
//   # ours, same measure:  .venv/bin/python -m bench.engine --game complots
//
// Compared at commit f90348ab1ace1e69b8abe2f2f70747478a318f8f of treason. This file is
// our driver only (no treason code): it plays its engine through its public player
// interface (playerJoined / command), nothing of it is copied.
//
'use strict';
// Random playouts of treason's engine (game.js), measured like bench.engine measures
// Complots: a uniformly random prompted player, a uniformly random legal choice, until
// one player is left. usage: node bench.js [seconds] [players]
//
// treason delivers states and history with setTimeout(fn, 0) (>= 1 ms in node); the
// driver runs those callbacks synchronously after each command instead, so no time
// is spent waiting on timers. Other timers (the 2-minute reaper) never fire.
const queue = [];
global.setTimeout = (fn, ms) => {
    if (!ms) queue.push(fn);
    return 0;
};
global.clearTimeout = () => {};
function flush() {
    while (queue.length) queue.shift()();
}

const createGame = require('./game');
const nullDataAccess = require('./test/null-data-access');
const shared = require('./web/shared');
const actions = shared.actions;
const S = shared.states;

function mulberry32(a) {
    return function () {
        a |= 0; a = (a + 0x6D2B79F5) | 0;
        let t = Math.imul(a ^ (a >>> 15), 1 | a);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

function living(s) {
    const out = [];
    s.players.forEach((p, i) => { if (p.influenceCount > 0) out.push(i); });
    return out;
}

function hidden(s, i) {
    return s.players[i].influence.filter(c => !c.revealed).map(c => c.role);
}

function combos(pool, k) {
    const out = new Map();
    const rec = (start, acc) => {
        if (acc.length === k) {
            const key = acc.slice().sort().join(',');
            if (!out.has(key)) out.set(key, acc.slice().sort());
            return;
        }
        for (let i = start; i < pool.length; i++) { acc.push(pool[i]); rec(i + 1, acc); acc.pop(); }
    };
    rec(0, []);
    return [...out.values()];
}

// The legal commands of player q, from q's own (masked) view s; allowed: who passed.
function choicesOf(s, q, allowed) {
    const st = s.state;
    const me = s.players[q];
    const out = [];
    switch (st.name) {
        case S.START_OF_TURN: {
            if (st.playerIdx !== q) return out;
            const targets = living(s).filter(t => t !== q);
            const kinds = me.cash >= 10 ? ['coup'] : ['income', 'foreign-aid', 'tax', 'exchange', 'steal', 'assassinate', 'coup'];
            for (const a of kinds) {
                if (me.cash < actions[a].cost) continue;
                if (actions[a].targeted) targets.forEach(t => out.push({command: 'play-action', action: a, target: t}));
                else out.push({command: 'play-action', action: a});
            }
            return out;
        }
        case S.ACTION_RESPONSE: {
            if (q === st.playerIdx || me.influenceCount === 0 || allowed.has(q)) return out;
            const action = actions[st.action];
            if (action.roles) out.push({command: 'challenge'});
            if (action.blockedBy && (!action.targeted || st.target === q)) {
                action.blockedBy.filter(r => s.roles.includes(r)).forEach(r => out.push({command: 'block', blockingRole: r}));
            }
            out.push({command: 'allow'});
            return out;
        }
        case S.FINAL_ACTION_RESPONSE: {
            if (q !== st.target) return out;
            actions[st.action].blockedBy.filter(r => s.roles.includes(r)).forEach(r => out.push({command: 'block', blockingRole: r}));
            out.push({command: 'allow'});
            return out;
        }
        case S.BLOCK_RESPONSE: {
            if (q === st.target || me.influenceCount === 0 || allowed.has(q)) return out;
            return [{command: 'challenge'}, {command: 'allow'}];
        }
        case S.REVEAL_INFLUENCE: {
            if (q !== st.playerToReveal) return out;
            return [...new Set(hidden(s, q))].map(r => ({command: 'reveal', role: r}));
        }
        case S.EXCHANGE: {
            if (q !== st.playerIdx) return out;
            return combos(st.exchangeOptions, me.influenceCount).map(roles => ({command: 'exchange', roles}));
        }
        default:
            throw new Error('unexpected state ' + st.name);
    }
}

function playOne(players, seed) {
    const rand = mulberry32(seed);
    const pick = arr => arr[Math.floor(rand() * arr.length)];
    const game = createGame({randomSeed: seed, dataAccess: nullDataAccess});
    const views = [];
    const proxies = [];
    for (let i = 0; i < players; i++) {
        const iface = {
            name: 'p' + i,
            onStateChange: s => { views[i] = s; },
            onHistoryEvent: () => {},
            onChatMessage: () => {},
        };
        proxies.push(game.playerJoined(iface));
        flush();
    }
    proxies[0].command({command: 'start', gameType: 'original', stateId: views[0].stateId});
    flush();
    let allowed = new Set();
    let lastId = views[0].stateId;
    let commands = 0;
    for (;;) {
        const s = views[0];
        if (s.state.name === S.WAITING_FOR_PLAYERS) {
            if (s.state.winnerIdx == null) throw new Error('no winner');
            return commands;
        }
        if (s.stateId !== lastId) { allowed = new Set(); lastId = s.stateId; }
        const prompted = [];
        for (let q = 0; q < players; q++) {
            const choices = choicesOf(views[q], q, allowed);
            if (choices.length) prompted.push([q, choices]);
        }
        if (!prompted.length) throw new Error('nobody prompted in ' + s.state.name);
        const [q, choices] = pick(prompted);
        const command = Object.assign({stateId: s.stateId}, pick(choices));
        proxies[q].command(command);
        flush();
        commands++;
        if (command.command === 'allow' && views[0].stateId === s.stateId) allowed.add(q);
    }
}

const seconds = Number(process.argv[2] || 3);
const players = Number(process.argv[3] || 4);
let games = 0, commands = 0;
const start = process.hrtime.bigint();
const cpu0 = process.cpuUsage();
let elapsed = 0;
while (elapsed < seconds) {
    commands += playOne(players, games + 1);
    games++;
    elapsed = Number(process.hrtime.bigint() - start) / 1e9;
}
const cpu = process.cpuUsage(cpu0);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
console.log(`treason ${players} players: ${games} games in ${elapsed.toFixed(2)} s: ` +
    `${(games / elapsed).toFixed(1)} games/s, ${(commands / elapsed).toFixed(0)} commands/s, ` +
    `${(commands / games).toFixed(1)} commands/game; per CPU second ${(games / cpuSeconds).toFixed(1)} games, ` +
    `${(1e6 * cpuSeconds / commands).toFixed(1)} us/command`);
