# The page's and the server's texts in English. One message per text a player reads; the
# Russian catalogue (ru.ftl) has the same messages. Notation (a1-h8, c3-d4, e5:c3) is never
# translated.

## The page's frame: header, settings, pages that do not exist

site-name = Bashni
nav-lobby = Lobby
nav-tournaments = Tournaments
nav-new-game = New game
nav-study = Study board
nav-leaderboard = Leaderboard
needs-javascript = This page needs JavaScript.
page-not-found = Page not found
page-not-found-back = Go to the start page

settings = Settings
settings-page-colours = Page colours
settings-scheme-system = As the system
settings-scheme-light = Light
settings-scheme-dark = Dark
settings-board-colours = Board colours
settings-board-wood = Wood
settings-board-green = Green
settings-board-grey = Grey
settings-board-size = Board size
settings-sounds = Sounds
settings-language = Language

## The server's answers to refused requests

error-too-many-requests = too many requests from your address; slow down
error-too-many-open = too many requests in progress from your address; slow down
error-body-too-slow = the request's body came too slowly; send it again
error-not-logged-in = you are not logged in (or your session has ended)
error-wrong-login = the name or the password is wrong
error-name-taken = the name { $name } is taken; choose another
error-name-looks-taken = the name { $name } looks too much like { $taken }, which is taken; choose another
error-wrong-password = the password is wrong; the account was not deleted

## The start page

home-new-game = New game
home-play = Play
home-mode-engine = Against the engine
home-mode-friend = Against a friend (invite link)
home-mode-local = Two people at one screen
home-game = Game
home-variant-bashni = Bashni (towers)
home-variant-russian = Russian draughts
home-level = Engine level
home-colour = Your colour
home-colour-white = White
home-colour-black = Black
home-colour-random = Random
home-clock = Clock
home-correspondence = Correspondence (days per move)
home-days =
    { $days ->
        [one] { $days } day
       *[other] { $days } days
    }
home-days-per-move = Days per move
home-days-per-move-hint = Each move may take this long. Time not used does not carry over.
home-your-name = Your name
home-first-player-name = First player's name (White)
home-second-player = Second player
home-second-player-name = Second player's name
home-account-name = The name of your account.
home-rated = Rated
home-start = Start the game
home-pdn-title = Open game records (PDN)
home-pdn-file = PDN file
home-pdn-paste = Or paste PDN text here
home-pdn-upload = Upload
home-pdn-nothing = Choose a file or paste PDN text.
home-pdn-none-found = No games found in the text.
home-pdn-game = Game { $number }
home-pdn-game-error = Game { $number }: { $error }
home-pdn-unreadable = cannot be read
home-your-games = Your games
home-your-games-none = None yet.
home-live-games = Live games
home-live-games-none = No game is being played now.
home-finished-games = Finished games
home-finished-games-none = No games yet.
home-records = Game records
home-records-none = No records uploaded yet.
home-loading = Loading…
home-more = More
home-lobby-title = Play someone now
home-lobby-text = Find an opponent in the lobby: accept a seek, or post your own.
home-lobby-link = Go to the lobby
home-study-title = Study
home-study-text = Set up any position, build towers, play through variations and ask the engine.
home-study-link = Open the study board

## A game in a list

game-item-white = White
game-item-black = Black
game-item-in-play = in play
game-item-aborted = aborted
game-item-moves =
    { $moves ->
        [one] { $moves } move
       *[other] { $moves } moves
    }
